// Authors by id with their institutions and number of papers.
UNWIND $ids AS id
MATCH (a:Author {id: id})
OPTIONAL MATCH (a)-[:AFFILIATED_WITH]->(i:Institution)
WITH a, collect(i {.*}) AS institutions
RETURN a {.*} AS author, institutions, COUNT { (a)-[:AUTHORED]->(:Paper) } AS paperCount
