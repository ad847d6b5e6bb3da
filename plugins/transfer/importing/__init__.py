"""Excel import: upload checks, workbook reading, cell conversion and the import run itself."""
