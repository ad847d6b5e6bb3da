"""Dynamic reports: data sources, datasets, chart views, panels, shared links (service key `dyreport`)."""
