MATCH (p:Paper {id: $id})
RETURN p {.*} AS paper
