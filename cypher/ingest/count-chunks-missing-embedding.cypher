// How many chunks still lack a vector in $property (the whole of an `embed` run, for its progress).
MATCH (c:Chunk)
WHERE c[$property] IS NULL
RETURN count(c) AS missing
