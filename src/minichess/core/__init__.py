"""The compiled rules core: tables built from a definition, and numba kernels over them."""
