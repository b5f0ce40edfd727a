// Graph ids of papers already known by DOI (full papers before stubs): external records join them, not duplicate.
UNWIND $dois AS doi
MATCH (p:Paper {doi: doi})
WITH doi, p ORDER BY p.stub, p.id
RETURN doi, collect(p.id)[0] AS id
