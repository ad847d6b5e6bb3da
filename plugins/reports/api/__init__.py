"""The HTTP routes of the reports plugin, all under /api/dyreport, assembled into one router."""
