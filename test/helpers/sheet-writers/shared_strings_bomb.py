"""A 1.1 MB workbook whose shared-string table inflates to 450 MiB of tiny strings.

Issue 11 row 3: such a file was answered 400, but the service answered nothing else for 14 s.
It is a valid package (content types, relationships, one sheet naming two of the strings); the
shared strings part is deflated as a stream, so neither this script nor a reader that bounds
what it inflates ever holds 450 MiB. Usage: shared_strings_bomb.py MIB OUT
"""
import sys
import zipfile

mib, out = int(sys.argv[1]), sys.argv[2]
NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr(
        "[Content_Types].xml",
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{CT}.sheet.main+xml"/>'
        f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{CT}.worksheet+xml"/>'
        f'<Override PartName="/xl/sharedStrings.xml" ContentType="{CT}.sharedStrings+xml"/></Types>',
    )
    z.writestr(
        "_rels/.rels",
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    )
    z.writestr(
        "xl/workbook.xml",
        f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{NS}" xmlns:r="{REL}">'
        '<sheets><sheet name="Lane" sheetId="1" r:id="rId1"/></sheets></workbook>',
    )
    z.writestr(
        "xl/_rels/workbook.xml.rels",
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    )
    z.writestr(
        "xl/worksheets/sheet1.xml",
        f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{NS}"><sheetData><row r="1">'
        '<c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row></sheetData></worksheet>',
    )
    chunk = b"<si><t>a</t></si>" * (1024 * 1024 // 17)
    with z.open("xl/sharedStrings.xml", "w") as f:
        f.write(f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{NS}">'.encode())
        f.write(b"<si><t>Sample Name</t></si><si><t>Barcode</t></si>")
        written = 0
        while written < mib * 1024 * 1024:
            f.write(chunk)
            written += len(chunk)
        f.write(b"</sst>")
