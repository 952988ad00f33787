{
  "targets": [
    {
      "target_name": "laneway_demux",
      "sources": ["demux-scan.c"],
      "cflags": ["-O2", "-Wall"]
    }
  ]
}
