"""Demo content: the reproducible sales rows and the panels built on them."""
