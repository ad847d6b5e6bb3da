"""Watermarks: per tenant and function settings, resolved for the signed-in user, drawn over the shell."""
