"""Data in and out: Excel workbooks imported as datasets, view rows exported, the transfer plugin hookup."""
