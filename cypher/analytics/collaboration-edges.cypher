// Joint papers between pairs of people (records sharing an ORCID are one person) among the given author records,
// within the filter.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b:Author)
WHERE a.id IN $authorIds AND b.id IN $authorIds AND p.stub = false
  // include: fragments/paper-filter
WITH coalesce('orcid:' + a.orcid, a.id) AS pa, coalesce('orcid:' + b.orcid, b.id) AS pb, p
WHERE pa < pb
WITH pa, pb, count(DISTINCT p) AS joint
WHERE joint >= $minJoint
RETURN pa AS source, pb AS target, joint
ORDER BY joint DESC, source, target
LIMIT $maxEdges
