"""Genes of a GTF or GFF3 file (or the intervals of a BED file) as BED: chrom, start (0-based),
end, name. Features of type "gene" when there are any, else every feature. Plain or gzip."""
import gzip
import re
import sys


def lines(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        for line in f:
            yield line.rstrip("\r\n")


def name_of(attributes):
    for key in ("gene_name", "gene_id", "Name", "ID"):
        m = re.search(r'(?:^|;)\s*%s[ =]"?([^";]+)"?' % key, attributes)
        if m:
            return m.group(1)
    return "."


def main(path):
    features, genes = [], []
    for line in lines(path):
        if line.startswith("##FASTA"):
            break
        if not line or line.startswith(("#", "track", "browser")):
            continue
        cols = line.split("\t")
        if len(cols) == 9 and cols[3].isdigit():
            row = (cols[0], int(cols[3]) - 1, int(cols[4]), name_of(cols[8]))
            (genes if cols[2] == "gene" else features).append(row)
        elif len(cols) >= 3:
            features.append((cols[0], int(cols[1]), int(cols[2]), cols[3] if len(cols) > 3 else "."))
    for chrom, start, end, name in genes or features:
        print("%s\t%d\t%d\t%s" % (chrom, start, end, name))


if __name__ == "__main__":
    main(sys.argv[1])
