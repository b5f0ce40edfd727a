// Author records whose name holds the surname (author_name full-text, a fuzzy match of one edit for longer surnames,
// so that "Muller" finds "Müller"): the candidates for a person a question names, with their papers. Records without
// an OpenAlex id (anonymous: one authorship each) are candidates too; the caller keeps those whose given names fit and
// counts one in only when it shares a co-author with the person.
CALL db.index.fulltext.queryNodes('author_name', $query, {limit: $scan}) YIELD node AS a
WHERE a.name IS NOT NULL
WITH a, COUNT { (a)-[:AUTHORED]->(:Paper {stub: false}) } AS papers
RETURN a {.id, .name, .orcid} AS author, papers
ORDER BY papers DESC, a.id
