"""Checks a sample's read files before its alignment counts: minimap2 reads a truncated gzip file
up to where it breaks off, and a pair's longer file only as far as the shorter one ("query files
have different number of records; extra records skipped"), and exits 0 both times, so the run
completed on part of the reads. Reads each file once (gzip or plain), counting lines; fails with
one line that names the file and what is wrong. Arguments: the sample's name, then each file's
name as uploaded and its path. Prints each file's read count."""
import gzip
import sys
import zlib

BLOCK = 1 << 20


def lines_in(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    n = 0
    with opener(path, "rb") as f:
        while True:
            block = f.read(BLOCK)
            if not block:
                return n
            n += block.count(b"\n")


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def main(sample, args):
    files = list(zip(args[0::2], args[1::2]))
    counts = []
    for role, (name, path) in zip(("Read 1", "Read 2"), files):
        try:
            counts.append(lines_in(path))
        except (EOFError, OSError, zlib.error) as err:
            fail(
                "%s of sample %s (%s) is not a complete gzip file (%s): it was cut off or damaged "
                "in a copy; upload the whole file again." % (role, sample, name, err)
            )
    for (name, _), n in zip(files, counts):
        print("%s\t%d" % (name, n // 4))
    if len(counts) == 2 and counts[0] != counts[1]:
        fail(
            "Read 1 of sample %s has %d reads and read 2 has %d: minimap2 would align only the first "
            "%d pairs. One file is cut short or they are not mates; upload the complete pair."
            % (sample, counts[0] // 4, counts[1] // 4, min(counts) // 4)
        )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
