// The documents behind papers' full texts: stored text, pages and sections (papers without one return nothing).
UNWIND $ids AS id
MATCH (p:Paper {id: id})
WHERE p.documentHash IS NOT NULL
RETURN p.id AS id, p.documentName AS name, p.documentFormat AS format, p.text AS fullText, p.pageCount AS pageCount,
       coalesce(p.pageStarts, []) AS pageStarts, coalesce(p.pageNumbers, []) AS pageNumbers,
       coalesce(p.sectionTitles, []) AS sectionTitles, coalesce(p.sectionKinds, []) AS sectionKinds,
       coalesce(p.sectionStarts, []) AS sectionStarts, coalesce(p.sectionEnds, []) AS sectionEnds,
       coalesce(p.referenceEntries, 0) AS referenceEntries,
       CASE WHEN p.arxivId IS NULL THEN null
            ELSE {id: p.arxivId, version: p.arxivVersion, category: p.arxivCategory, date: p.arxivDate} END AS arxiv
