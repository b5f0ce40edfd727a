// Every identified author record carrying one of the ORCIDs (one person under several records), with paper counts.
MATCH (a:Author)
WHERE a.orcid IN $orcids AND a.anonymous = false
RETURN a.id AS id, a.name AS name, a.orcid AS orcid, COUNT { (a)-[:AUTHORED]->(:Paper {stub: false}) } AS count
