"""The document editor's server side: xlsx and docx attachments opened as Univer's data, and saved back."""
