UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p {.*} AS paper
