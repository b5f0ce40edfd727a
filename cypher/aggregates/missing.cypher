// Which stored aggregates are missing (a store written before they existed): a full paper without its internal
// citation count; an author record without its person totals, or authors and no :Person label (a store written
// before the label existed); a venue without its totals; full papers and no PaperTotals, or a TopicYear without its internal sum (the yearly
// counts).
RETURN EXISTS { MATCH (p:Paper {stub: false}) WHERE p.internalCitedBy IS NULL } AS papers,
       EXISTS { MATCH (a:Author) WHERE a.personPapers IS NULL } OR
       (EXISTS { MATCH (:Author) } AND NOT EXISTS { MATCH (:Person) }) AS people,
       EXISTS { MATCH (v:Venue) WHERE v.venuePapers IS NULL } AS venues,
       EXISTS { MATCH (:Paper {stub: false}) } AND NOT EXISTS { MATCH (:PaperTotals) } OR
       EXISTS { MATCH (c:TopicYear) WHERE c.internal IS NULL } AS years
