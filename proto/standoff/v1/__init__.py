"""Generated wire code of the Standoff protocol, version 1 (package ``standoff.v1``), and the
``.proto`` files it is generated from (scripts/gen_proto.py). Do not edit the *_pb2 files."""
