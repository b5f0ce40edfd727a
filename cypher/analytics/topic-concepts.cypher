// The concepts a topic phrase may name: topics whose name holds a word of every stem of the phrase ($query is
// "+stem1* +stem2* …", topic_name full-text), with how many papers carry them. The caller keeps the names that hold
// every word of the phrase and at most two more ("Muscle relaxant" for "muscle relaxants", "Articular cartilage repair"
// for "cartilage repair").
CALL db.index.fulltext.queryNodes('topic_name', $query, {limit: $limit}) YIELD node AS t
RETURN t.id AS id, t.name AS name, COUNT { (t)<-[:HAS_TOPIC]-() } AS papers
ORDER BY papers DESC, id
