// Applied at start, statement by statement; every statement is idempotent (IF NOT EXISTS).
CREATE CONSTRAINT paper_id IF NOT EXISTS FOR (p:Paper) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT author_id IF NOT EXISTS FOR (a:Author) REQUIRE a.id IS UNIQUE;
CREATE CONSTRAINT institution_id IF NOT EXISTS FOR (i:Institution) REQUIRE i.id IS UNIQUE;
CREATE CONSTRAINT venue_id IF NOT EXISTS FOR (v:Venue) REQUIRE v.id IS UNIQUE;
CREATE CONSTRAINT topic_id IF NOT EXISTS FOR (t:Topic) REQUIRE t.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (c:Chunk) REQUIRE c.id IS UNIQUE;
CREATE INDEX paper_doi IF NOT EXISTS FOR (p:Paper) ON (p.doi);
CREATE INDEX paper_year IF NOT EXISTS FOR (p:Paper) ON (p.year);
CREATE INDEX paper_stub IF NOT EXISTS FOR (p:Paper) ON (p.stub);
// Whole-graph top papers read the top of these (analytics/top-papers-all) instead of ranking every paper.
CREATE INDEX paper_stub_internal IF NOT EXISTS FOR (p:Paper) ON (p.stub, p.internalCitedBy);
CREATE INDEX paper_stub_global IF NOT EXISTS FOR (p:Paper) ON (p.stub, p.citedByCount);
// Full papers per topic and year, per year and in all, kept by every write (aggregates/refresh): whole-graph emerging
// topics, topic bursts and Bradford's zones read them instead of every paper.
CREATE CONSTRAINT topic_year_key IF NOT EXISTS FOR (c:TopicYear) REQUIRE (c.topic, c.year) IS UNIQUE;
CREATE INDEX topic_year_year IF NOT EXISTS FOR (c:TopicYear) ON (c.year);
CREATE CONSTRAINT paper_year_key IF NOT EXISTS FOR (c:PaperYear) REQUIRE c.year IS UNIQUE;
CREATE CONSTRAINT paper_totals_key IF NOT EXISTS FOR (c:PaperTotals) REQUIRE c.id IS UNIQUE;
CREATE INDEX paper_document_hash IF NOT EXISTS FOR (p:Paper) ON (p.documentHash);
CREATE INDEX author_orcid IF NOT EXISTS FOR (a:Author) ON (a.orcid);
CREATE INDEX author_person IF NOT EXISTS FOR (a:Author) ON (a.person);
CREATE INDEX person_papers IF NOT EXISTS FOR (a:Person) ON (a.personPapers);
CREATE INDEX person_internal IF NOT EXISTS FOR (a:Person) ON (a.personInternal);
CREATE INDEX person_global IF NOT EXISTS FOR (a:Person) ON (a.personGlobal);
CREATE FULLTEXT INDEX paper_text IF NOT EXISTS FOR (p:Paper) ON EACH [p.title, p.abstract, p.enrichment] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (c:Chunk) ON EACH [c.text, c.paperTitle] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:Chunk) ON (c.embedding) OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
// A companion model's vectors (CITEGRAPH_COMPANION_MODEL): a second dense list in search's fusion.
CREATE VECTOR INDEX chunk_companion_embedding IF NOT EXISTS FOR (c:Chunk) ON (c.companionEmbedding) OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE CONSTRAINT document_set_id IF NOT EXISTS FOR (s:DocumentSet) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT set_document_id IF NOT EXISTS FOR (d:SetDocument) REQUIRE d.id IS UNIQUE;
// One lock node per set owner: creating a set locks it first, so the live-set cap holds under concurrent requests.
CREATE CONSTRAINT set_owner_id IF NOT EXISTS FOR (o:SetOwner) REQUIRE o.owner IS UNIQUE;
CREATE CONSTRAINT set_chunk_id IF NOT EXISTS FOR (c:SetChunk) REQUIRE c.id IS UNIQUE;
CREATE INDEX document_set_owner IF NOT EXISTS FOR (s:DocumentSet) ON (s.owner);
CREATE INDEX document_set_expires IF NOT EXISTS FOR (s:DocumentSet) ON (s.expiresAt);
CREATE INDEX set_document_set IF NOT EXISTS FOR (d:SetDocument) ON (d.setId);
CREATE INDEX set_chunk_set IF NOT EXISTS FOR (c:SetChunk) ON (c.setId);
CREATE FULLTEXT INDEX topic_name IF NOT EXISTS FOR (t:Topic) ON EACH [t.name];
CREATE FULLTEXT INDEX author_name IF NOT EXISTS FOR (a:Author) ON EACH [a.name];
CREATE FULLTEXT INDEX venue_name IF NOT EXISTS FOR (v:Venue) ON EACH [v.name];
CREATE FULLTEXT INDEX institution_name IF NOT EXISTS FOR (i:Institution) ON EACH [i.name];
