"""Portal content: articles (announcements, hot topics, featured, company news) and the portal panels."""
