"""Usage tracking: micro-app loads, page visits and button clicks, rolled up daily for the home cards."""
