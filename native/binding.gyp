{
  "targets": [
    {
      "target_name": "laneway_demux",
      "sources": ["demux-module.c", "demux-scan.c", "demux-copy.c"],
      "cflags": ["-O2", "-Wall"]
    }
  ]
}
