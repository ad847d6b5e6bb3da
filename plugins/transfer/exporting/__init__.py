"""Exports: the safe Excel/CSV row writers, asynchronous data exports and Word exports."""
