"""Genes of a GTF or GFF3 file (or the intervals of a BED file) as BED: chrom, start (0-based),
end, name. Gene-level features (is_gene) when there are any, else every feature. Plain or gzip.

Only genes on sequences the reference has (its samtools faidx index, the second argument) are
written: samtools bedcov stops at the first line naming a sequence the alignments lack. Those
left out are counted on stderr (the run's log). When the annotation and the reference share no
sequence name at all, nothing could be counted: the script fails, its last line naming a few of
each side's sequences, so that the run's error says which naming each file uses."""
import gzip
import re
import sys

SHOWN = 4


def lines(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        for line in f:
            yield line.rstrip("\r\n")


def name_of(attributes):
    # The symbol first: GTF's gene_name, GFF3's Name (Ensembl's GFF3 has gene_id=ENSG... too).
    for key in ("gene_name", "Name", "gene_id", "ID"):
        m = re.search(r'(?:^|;)\s*%s[ =]"?([^";]+)"?' % key, attributes)
        if m:
            return m.group(1)
    return "."


def is_gene(kind):
    """Gene-level types: GTF's and NCBI's "gene" and "pseudogene", Ensembl GFF3's "ncRNA_gene",
    and the Sequence Ontology's other *_gene types (tRNA_gene, transposable_element_gene)."""
    return kind in ("gene", "pseudogene") or kind.endswith("_gene")


def intervals(path):
    features, genes = [], []
    for line in lines(path):
        if line.startswith("##FASTA"):
            break
        if not line or line.startswith(("#", "track", "browser")):
            continue
        cols = line.split("\t")
        if len(cols) == 9 and cols[3].isdigit():
            row = (cols[0], int(cols[3]) - 1, int(cols[4]), name_of(cols[8]))
            (genes if is_gene(cols[2]) else features).append(row)
        elif len(cols) >= 3:
            features.append((cols[0], int(cols[1]), int(cols[2]), cols[3] if len(cols) > 3 else "."))
    return genes or features


def reference_names(fai):
    with open(fai) as f:
        return [line.split("\t", 1)[0] for line in f if line.strip()]


def count(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def some(names):
    shown = ", ".join(names[:SHOWN])
    return shown + (", ..." if len(names) > SHOWN else "")


def in_order(rows):
    seen = {}
    for chrom, _, _, _ in rows:
        seen.setdefault(chrom, None)
    return list(seen)


def hint(annotation, reference):
    """Ensembl's names against UCSC's, when adding or dropping "chr" would match them."""
    ref = set(reference)

    def ucsc(n):
        return "chrM" if n == "MT" else "chr" + n

    def ensembl(n):
        return "MT" if n == "chrM" else n[3:]

    if any(ucsc(n) in ref for n in annotation):
        return ' The annotation names sequences as Ensembl does ("1", "MT"), the reference as UCSC does ("chr1", "chrM").'
    if any(n.startswith("chr") and ensembl(n) in ref for n in annotation):
        return ' The annotation names sequences as UCSC does ("chr1", "chrM"), the reference as Ensembl does ("1", "MT").'
    return ""


def main(path, fai):
    rows = intervals(path)
    known = reference_names(fai)
    has = set(known)
    kept = [r for r in rows if r[0] in has]
    left = [r for r in rows if r[0] not in has]
    if rows and not kept:
        names = in_order(rows)
        sys.stderr.write(
            "None of the annotation's %s (%s) is among the reference's %s (%s): "
            "no gene can be counted.%s Use an annotation that names sequences as the reference does.\n"
            % (count(len(names), "sequence name"), some(names), count(len(known), "sequence"), some(known), hint(names, known))
        )
        sys.exit(1)
    for chrom, start, end, name in kept:
        print("%s\t%d\t%d\t%s" % (chrom, start, end, name))
    if left:
        names = in_order(left)
        sys.stderr.write(
            "%d of %s left out: on %s the reference lacks (%s).\n"
            % (len(left), count(len(rows), "gene"), count(len(names), "sequence"), some(names))
        )
    sys.stderr.write("%s for coverage.\n" % count(len(kept), "gene"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
