import { useMutation } from '@apollo/client/react';
import { graphql } from '../../gql';

export const CreateSessionMutation = graphql(`
  mutation CreateSession($input: CreateSessionInput!) {
    createSession(input: $input) {
      id
      title
    }
  }
`);

/** Creates a root session; the sidebar reads its first page again, so it shows at the top. */
export function useCreateSession() {
  const [mutate, { loading }] = useMutation(CreateSessionMutation, { refetchQueries: ['SidebarLineages'] });

  async function createSession(title: string, description: string | null) {
    const { data } = await mutate({ variables: { input: { title, description } } });
    if (!data) throw new Error('The server sent no session.');
    return data.createSession;
  }

  return { createSession, creating: loading };
}
