"""Workbooks as lab scripts write them, with openpyxl and pandas (Debian's python3-openpyxl and
python3-pandas), for the tests that read them back (issue 13 part 1).

  fill IN OUT ROWS      open IN with openpyxl, write ROWS under the first sheet's headers, save
                        (ROWS = [] saves it unchanged)
  new OUT ROWS          a new workbook made by openpyxl
  titled OUT TITLE ROWS a new workbook made by openpyxl with a title line above the headers
  pandas-roundtrip IN OUT   every sheet read by pandas.read_excel and written by DataFrame.to_excel
  pandas-frame OUT ROWS     one DataFrame written by DataFrame.to_excel
  pandas-csv OUT ROWS       one DataFrame written by DataFrame.to_csv (no index)
  read IN               the first sheet's rows as JSON, as openpyxl reads them
  inspect IN            sheet names, the first sheet's data validations and rows, as JSON

ROWS is JSON: a list of objects from header label (without the " *" mark) to a string, a
number, or {"date": "YYYY-MM-DD"} for a date cell.
"""
import datetime
import json
import sys

import openpyxl


def value(v):
    if isinstance(v, dict) and "date" in v:
        return datetime.date.fromisoformat(v["date"])
    return v


def label(h):
    return str(h or "").replace("*", "").strip()


def fill(src, out, rows):
    wb = openpyxl.load_workbook(src)
    ws = wb.worksheets[0]
    headers = [label(c.value) for c in ws[1]]
    for r, row in enumerate(rows, start=2):
        for key, v in row.items():
            if key not in headers:
                headers.append(key)
                ws.cell(row=1, column=len(headers), value=key)
            ws.cell(row=r, column=headers.index(key) + 1, value=value(v))
    wb.save(out)


def new(out, rows, title=None):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Lane"
    if title is not None:
        ws.append([title])
    headers = list(dict.fromkeys(k for row in rows for k in row))
    ws.append(headers)
    for row in rows:
        ws.append([value(row.get(h)) for h in headers])
    wb.save(out)


def pandas_roundtrip(src, out):
    import pandas as pd

    sheets = pd.read_excel(src, sheet_name=None)
    with pd.ExcelWriter(out) as writer:
        for name, frame in sheets.items():
            frame.to_excel(writer, sheet_name=name, index=False)


def pandas_frame(out, rows):
    import pandas as pd

    frame = pd.DataFrame([{k: value(v) for k, v in row.items()} for row in rows])
    frame.to_excel(out, sheet_name="Lane", index=False)


def pandas_csv(out, rows):
    import pandas as pd

    pd.DataFrame([{k: value(v) for k, v in row.items()} for row in rows]).to_csv(out, index=False)


def inspect(src):
    wb = openpyxl.load_workbook(src)
    ws = wb.worksheets[0]
    validations = [
        {"type": v.type, "formula1": v.formula1, "sqref": str(v.sqref)} for v in ws.data_validations.dataValidation
    ]
    rows = [[None if c is None else str(c) for c in row] for row in ws.iter_rows(values_only=True)]
    print(json.dumps({"sheets": wb.sheetnames, "validations": validations, "rows": rows}))


def read(src):
    ws = openpyxl.load_workbook(src).worksheets[0]
    print(json.dumps([[None if c is None else str(c) for c in row] for row in ws.iter_rows(values_only=True)]))


cmd = sys.argv[1]
if cmd == "fill":
    fill(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]))
elif cmd == "new":
    new(sys.argv[2], json.loads(sys.argv[3]))
elif cmd == "titled":
    new(sys.argv[2], json.loads(sys.argv[4]), title=sys.argv[3])
elif cmd == "pandas-csv":
    pandas_csv(sys.argv[2], json.loads(sys.argv[3]))
elif cmd == "inspect":
    inspect(sys.argv[2])
elif cmd == "pandas-roundtrip":
    pandas_roundtrip(sys.argv[2], sys.argv[3])
elif cmd == "pandas-frame":
    pandas_frame(sys.argv[2], json.loads(sys.argv[3]))
elif cmd == "read":
    read(sys.argv[2])
else:
    sys.exit(f"unknown command {cmd}")
