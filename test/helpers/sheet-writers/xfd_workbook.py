"""An annotation workbook with one cell in the last column (XFD), written by openpyxl.

Issue 11 row 2: a lane annotation of 2,000 rows with one cell in column XFD filled the
service's heap (and a small variant blocked it for 2 s). Usage: xfd_workbook.py ROWS NAMED OUT
(NAMED=1: every row has a sample name; 0: only the header and the far cell).
"""
import sys

from openpyxl import Workbook

rows, named, out = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3]
wb = Workbook()
ws = wb.active
ws.title = "Lane"
ws.append(["Sample Name", "Barcode", "Organism", "Category"])
if named:
    for i in range(2, rows + 1):
        ws.cell(row=i, column=1, value=f"sample_{i}")
ws.cell(row=rows, column=16384, value="x")
wb.save(out)
