"""The report designer's server side: structured data sources, dataset drafts, calculated fields, panel
drafts, publishing, versions and rollback."""
