"""Files: tenant-owned attachments, image and icon uploads, custom icons.

Other plugins use the Python API in :mod:`atrium.plugins.files.service` (store a file, sign a link) and
:mod:`atrium.plugins.files.multipart` (stream a multipart upload to disk with a size limit).
"""
