"""The ``minichess`` command line (``minichess.cli.main:main``): one module per subcommand."""
