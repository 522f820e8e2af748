"""The examples in the package's docstrings run and show what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import minichess

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(minichess.__path__, "minichess.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0, f"{failures} docstring example(s) of {name} failed (see above)"
