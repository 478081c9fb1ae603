import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/**
 * A file made a document of a knowledge base (RAGFlow's `file2document`); one per file and knowledge base. Deleting the
 * document, the file or the knowledge base deletes the link with it (foreign keys).
 */
@Entity("file_document")
export class FileLink {
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  fileId: string;

  @Column({ type: "varchar", length: 32 })
  documentId: string;

  @Column({ type: "varchar", length: 32 })
  knowledgeBaseId: string;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}
