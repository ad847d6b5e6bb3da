"""The help plugin: help documents per menu, the help centre and the knowledge chat (`/api/aigc`)."""
