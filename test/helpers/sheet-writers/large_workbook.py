"""A lane annotation at the reader's bounds, written by openpyxl (write-only mode, as scripts
writing large sheets do): ROWS rows of COLS columns, every cell filled but the Barcode column,
which is left empty so that the lane rules stop at a per-row check and the time spent is the
reader's (the rules' pairwise barcode checks are the demultiplexing rules' own cost).
Usage: large_workbook.py ROWS COLS OUT"""
import sys

from openpyxl import Workbook

rows, cols, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
wb = Workbook(write_only=True)
ws = wb.create_sheet("Lane")
ws.append(["Sample Name", "Barcode", "Organism", "Category"] + [f"Field {c}" for c in range(4, cols)])
for r in range(1, rows):
    ws.append([f"sample_{r}", None, "Homo sapiens", "Total RNA"] + [f"value {r}.{c}" for c in range(4, cols)])
wb.save(out)
