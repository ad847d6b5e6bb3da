"""From a view to its chart answer: definitions, fields, filters, queries, sources, extracts, linkage."""
