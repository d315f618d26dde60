import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import type { LineageControlFragment } from '../../../gql/graphql';
import { LineageControl } from '../LineageControl';

type TreeNode = LineageControlFragment['lineageTree'][number];

function node(id: string, title: string, depth: number, predecessorId: string | null): TreeNode {
  return {
    __typename: 'LineageNode',
    depth,
    session: { __typename: 'Session', id, title },
    edge: predecessorId
      ? { __typename: 'ContinuationEdge', id: `edge-${id}`, predecessor: { __typename: 'Session', id: predecessorId } }
      : null,
  };
}

const step = (id: string, title: string) => ({ __typename: 'Session' as const, id, title });

/** Rethink compaction → Session continuation proposal → Implementation plan (here). */
const chain: LineageControlFragment = {
  __typename: 'Session',
  id: 'plan',
  lineage: [step('origin', 'Rethink compaction'), step('proposal', 'Session continuation proposal'), step('plan', 'Implementation plan')],
  lineageTree: [
    node('origin', 'Rethink compaction', 0, null),
    node('proposal', 'Session continuation proposal', 1, 'origin'),
    node('plan', 'Implementation plan', 2, 'proposal'),
  ],
};

/** The same chain, plus a branch written in the proposal after it was continued. */
const branched: LineageControlFragment = {
  ...chain,
  lineageTree: [...chain.lineageTree.slice(0, 2), node('plan', 'Implementation plan', 2, 'proposal'), node('branch', 'Alternative plan', 2, 'proposal')],
};

function Address() {
  return <p data-testid="address">{useLocation().pathname}</p>;
}

function renderLineage(session: LineageControlFragment) {
  return render(
    <MemoryRouter initialEntries={['/sessions/plan']}>
      <LineageControl session={session} />
      <Address />
    </MemoryRouter>,
  );
}

describe('the lineage control', () => {
  it('shows the path from the origin to here, each earlier session a link', () => {
    renderLineage(chain);

    const path = screen.getByRole('navigation', { name: 'Lineage' });
    const links = within(path).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Rethink compaction', '/sessions/origin'],
      ['Session continuation proposal', '/sessions/proposal'],
    ]);
    expect(within(path).getByText('Implementation plan')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByText(/Lineage tree/)).not.toBeInTheDocument();
  });

  it('draws a tree once the lineage branched, marks this session and navigates from every node', () => {
    renderLineage(branched);

    fireEvent.click(screen.getByText('Lineage tree · 4 sessions, branched'));
    const tree = screen.getByRole('group', { name: 'Lineage tree · 4 sessions, branched' });
    const nodes = within(tree).getAllByRole('link');
    expect(nodes.map((link) => link.getAttribute('aria-label'))).toEqual([
      'Rethink compaction',
      'Session continuation proposal',
      'Implementation plan (this session)',
      'Alternative plan',
    ]);
    expect(within(tree).getByRole('link', { name: 'Implementation plan (this session)' })).toHaveAttribute('aria-current', 'page');

    fireEvent.click(within(tree).getByRole('link', { name: 'Alternative plan' }));
    expect(screen.getByTestId('address')).toHaveTextContent('/sessions/branch');
  });

  it('shows nothing for a session with no lineage', () => {
    const { container } = renderLineage({
      __typename: 'Session',
      id: 'plan',
      lineage: [step('plan', 'Implementation plan')],
      lineageTree: [node('plan', 'Implementation plan', 0, null)],
    });

    expect(container.querySelector('.lineage-control')).toBeNull();
  });

  it('draws the tree on the origin of a branched lineage, where there is no path to show', () => {
    renderLineage({ ...branched, id: 'origin', lineage: [step('origin', 'Rethink compaction')] });

    expect(screen.queryByRole('navigation', { name: 'Lineage' })).not.toBeInTheDocument();
    expect(screen.getByText('Lineage tree · 4 sessions, branched')).toBeInTheDocument();
  });
});
