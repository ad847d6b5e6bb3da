"""{{title}}: an Atrium plugin."""
