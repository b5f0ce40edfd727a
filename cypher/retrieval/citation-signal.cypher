// How strongly each candidate is tied to the seed papers in the citation graph: co-cited with them (a third paper
// cites both), bibliographically coupled (both cite a third work, stubs included) and direct citations.
UNWIND $candidateIds AS candidateId
MATCH (c:Paper {id: candidateId})
RETURN candidateId AS paperId,
       COUNT { MATCH (c)<-[:CITES]-(:Paper)-[:CITES]->(s:Paper) WHERE s.id IN $seedIds AND s <> c } AS cocited,
       COUNT { MATCH (c)-[:CITES]->(:Paper)<-[:CITES]-(s:Paper) WHERE s.id IN $seedIds AND s <> c } AS coupled,
       COUNT { MATCH (c)-[:CITES]-(s:Paper) WHERE s.id IN $seedIds AND s <> c } AS direct
