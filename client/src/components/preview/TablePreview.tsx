import { Box, Button, HStack, Table, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../format";
import type { FilePreviewFragment } from "../../graphql/gql/graphql";
import { sheetCut } from "./previewLogic";

type Sheet = NonNullable<FilePreviewFragment["sheets"]>[number];

/** Spreadsheets and CSV: one sheet at a time (tabs when there are more), its first row as a sticky header, rows numbered. */
export function TablePreview({ sheets }: { sheets: Sheet[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [selected, setSelected] = useState(0);
  const sheet = sheets[Math.min(selected, sheets.length - 1)];
  if (!sheet) return <Text color="fg.muted">{t("preview.emptySheet")}</Text>;
  const [header, ...rows] = sheet.rows;
  const cut = sheetCut(sheet);
  return (
    <Box data-testid="preview-table">
      {sheets.length > 1 && (
        <HStack gap="1" mb="3" wrap="wrap" role="tablist" aria-label={t("preview.sheets")}>
          {sheets.map((each, index) => (
            <Button
              key={`${index}-${each.name}`}
              size="xs"
              role="tab"
              aria-selected={index === selected}
              variant={index === selected ? "solid" : "outline"}
              colorPalette={index === selected ? "brand" : "gray"}
              onClick={() => setSelected(index)}
              data-testid="preview-sheet-tab"
            >
              {each.name}
            </Button>
          ))}
        </HStack>
      )}
      {!header ? (
        <Text color="fg.muted">{t("preview.emptySheet")}</Text>
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="l2" maxHeight="70vh" overflow="auto">
          <Table.Root size="sm" stickyHeader showColumnBorder interactive data-testid="preview-sheet" data-sheet={sheet.name}>
            <Table.Header>
              <Table.Row bg="bg.subtle">
                <Table.ColumnHeader width="1%" color="fg.muted" textAlign="end" aria-label={t("preview.rowNumber")}>
                  #
                </Table.ColumnHeader>
                {header.map((cell, column) => (
                  <Table.ColumnHeader key={column} whiteSpace="nowrap" fontWeight="semibold">
                    {cell}
                  </Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((row, index) => (
                <Table.Row key={index} data-testid="preview-row">
                  <Table.Cell color="fg.muted" textAlign="end" fontVariantNumeric="tabular-nums">
                    {index + 1}
                  </Table.Cell>
                  {row.map((cell, column) => (
                    <Table.Cell key={column} maxWidth="80" truncate title={cell}>
                      {cell}
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      {cut && (
        <Text fontSize="sm" color="fg.muted" mt="2" data-testid="preview-sheet-truncated">
          {t("preview.sheetTruncated", { rows: format.number(cut.rows), totalRows: format.number(cut.totalRows), columns: format.number(cut.columns), totalColumns: format.number(cut.totalColumns) })}
        </Text>
      )}
    </Box>
  );
}
