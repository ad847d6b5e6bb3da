"""Import and export: the Excel import wizard, asynchronous Excel exports and Word exports.

Other plugins register what can be imported and exported (see :mod:`atrium.plugins.transfer.registry`)::

    from atrium.plugins.transfer import ExportSource, register_export_source
"""

from atrium.plugins.transfer.registry import (
    ExportColumn,
    ExportRequest,
    ExportSource,
    ImportField,
    ImportTarget,
    WordTemplate,
    bulk_insert,
    current_batch_id,
    export_source,
    import_target,
    paged,
    query_rows,
    register_export_source,
    register_import_target,
    register_word_template,
)
from atrium.plugins.transfer.writer import CsvRowWriter, XlsxRowWriter, neutralise

__all__ = [
    "CsvRowWriter",
    "ExportColumn",
    "ExportRequest",
    "ExportSource",
    "ImportField",
    "ImportTarget",
    "WordTemplate",
    "XlsxRowWriter",
    "bulk_insert",
    "current_batch_id",
    "export_source",
    "import_target",
    "neutralise",
    "paged",
    "query_rows",
    "register_export_source",
    "register_import_target",
    "register_word_template",
]
