"""Developer tools for a GPU machine; the entry point is ``python tools/device.py``
(docs/architecture.md, "Tools"). A package so that the tests import its modules."""
