-- Half of every page kept free, so that each row on it can take its claim's new version there (a HOT update: no
-- index names the columns a claim changes). At the 70 of migration 0017 only about half the claims of
-- ~600-byte deliveries found room on a page whose rows were all claimed in the same batch, and the rest wrote an
-- entry in each of the table's indexes. Applies to pages written from now on.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 45);
