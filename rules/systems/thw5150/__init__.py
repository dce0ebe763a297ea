"""«5150» (Two Hour Wargames), the Basic Rules and the Normals list: spec /work/shared/specs/5150.md."""
