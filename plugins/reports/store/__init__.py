"""What the plugin keeps and who may see it: sources, datasets, panels, grants, shared links, extracts."""
