"""System letters: an inbox per user and system, sending to users, roles or a whole tenant, live push."""
