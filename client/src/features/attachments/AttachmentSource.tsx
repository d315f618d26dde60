import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { AttachmentList } from './AttachmentList';

export const AttachmentByCidQuery = graphql(`
  query AttachmentByCid($cid: String!) {
    attachment(cid: $cid) {
      ...AttachmentFields
    }
  }
`);

/** The attachment a manifest item pins, shown as a message shows it: a thumbnail or a download. */
export function AttachmentSource({ cid }: { cid: string }) {
  const { data, error } = useQuery(AttachmentByCidQuery, { variables: { cid } });
  if (error) return <p className="attachment-error">The attachment could not be read: {error.message}</p>;
  if (!data) return null;
  if (!data.attachment) return <p className="hint">This account holds no attachment with this cid.</p>;
  return <AttachmentList attachments={[data.attachment]} />;
}
