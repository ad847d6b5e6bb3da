"""Import and export: the Excel import wizard, asynchronous Excel exports and Word exports.

Other plugins offer what can be imported and exported by answering the SDK's hooks
(``atrium_import_targets``, ``atrium_export_sources``, ``atrium_word_templates``) with the types of
:mod:`atrium.sdk.transfer`; they never import this package. The names below are for transfer's own code,
its tests and tools.
"""

from atrium.plugins.transfer.exporting.writer import CsvRowWriter, XlsxRowWriter, neutralise
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
