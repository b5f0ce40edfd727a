MATCH (p:Paper {doi: $doi})
RETURN p {.*} AS paper
ORDER BY p.stub, p.id
LIMIT 1
