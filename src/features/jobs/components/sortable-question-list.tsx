import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type ScreenReaderInstructions,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { arraySwap, rectSwappingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { Card, Flex, IconButton, Text } from '@radix-ui/themes';
import { useMemo, useRef } from 'react';

/** Spec §9: one key press moves the dragged question 25 pixels. */
export const KEYBOARD_STEP_PX = 25;

/** Arrow keys move the dragged item by a fixed step (dnd-kit's sortableKeyboardCoordinates jumps item to item). */
export const stepKeyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  switch (event.code) {
    case 'ArrowUp':
      return { ...currentCoordinates, y: currentCoordinates.y - KEYBOARD_STEP_PX };
    case 'ArrowDown':
      return { ...currentCoordinates, y: currentCoordinates.y + KEYBOARD_STEP_PX };
    case 'ArrowLeft':
      return { ...currentCoordinates, x: currentCoordinates.x - KEYBOARD_STEP_PX };
    case 'ArrowRight':
      return { ...currentCoordinates, x: currentCoordinates.x + KEYBOARD_STEP_PX };
    default:
      return undefined;
  }
};

export type ListedQuestion = { id: string; title: string };

type SortableQuestionListProps = {
  questions: ListedQuestion[];
  /** The ids in their new order, after a drop swapped two questions. */
  onReorder: (ids: string[]) => void;
  onRemove: (id: string) => void;
};

const screenReaderInstructions: ScreenReaderInstructions = {
  draggable:
    'To move a question, press space or enter to pick it up. Use the arrow keys to move it over another question, ' +
    'then press space or enter to swap the two, or escape to cancel.',
};

/** Dropping one question on another swaps the two (spec §4). */
export function swapQuestions(ids: string[], activeId: UniqueIdentifier, overId: UniqueIdentifier | undefined) {
  if (overId === undefined || activeId === overId) return ids;
  const from = ids.indexOf(String(activeId));
  const to = ids.indexOf(String(overId));
  if (from < 0 || to < 0) return ids;
  return arraySwap(ids, from, to);
}

/** The job's questions in order, reorderable by pointer and keyboard, each removable. */
export function SortableQuestionList({ questions, onReorder, onRemove }: SortableQuestionListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: stepKeyboardCoordinates }),
  );
  const ids = useMemo(() => questions.map((question) => question.id), [questions]);
  // Whether the dragged question has left its own place: only then is coming back worth announcing (dnd-kit
  // reports the question over itself right after the pick-up, which would drown the pick-up announcement).
  const movedAway = useRef(false);

  const announcements = useMemo<Announcements>(() => {
    const titles = new Map(questions.map((question) => [question.id, question.title]));
    const titleOf = (id: UniqueIdentifier) => `"${titles.get(String(id)) ?? 'question'}"`;
    const position = (id: UniqueIdentifier) => `${ids.indexOf(String(id)) + 1} of ${ids.length}`;
    return {
      onDragStart: ({ active }) => {
        movedAway.current = false;
        return `Picked up question ${titleOf(active.id)}, number ${position(active.id)}.`;
      },
      onDragOver: ({ active, over }) => {
        if (over?.id === active.id) {
          return movedAway.current ? `Question ${titleOf(active.id)} is back over its own place.` : undefined;
        }
        movedAway.current = true;
        if (!over) return `Question ${titleOf(active.id)} is no longer over a question.`;
        return `Question ${titleOf(active.id)} is over question ${titleOf(over.id)}, number ${position(over.id)}. Drop to swap them.`;
      },
      onDragEnd: ({ active, over }) => {
        if (!over || over.id === active.id) return `Question ${titleOf(active.id)} was dropped in its own place.`;
        return `Question ${titleOf(active.id)} was swapped with question ${titleOf(over.id)}: it is now number ${position(over.id)}.`;
      },
      onDragCancel: ({ active }) => `Moving question ${titleOf(active.id)} was cancelled; it stays number ${position(active.id)}.`,
    };
  }, [ids, questions]);

  function handleDragEnd({ active, over }: DragEndEvent) {
    const next = swapQuestions(ids, active.id, over?.id);
    if (next !== ids) onReorder(next);
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={handleDragEnd}
      accessibility={{ announcements, screenReaderInstructions }}
    >
      <SortableContext items={ids} strategy={rectSwappingStrategy}>
        <Flex asChild direction="column" gap="2" m="0" p="0" style={{ listStyle: 'none' }}>
          <ol aria-label="Questions of this job">
            {questions.map((question, index) => (
              <SortableQuestion
                key={question.id}
                question={question}
                position={index + 1}
                onRemove={() => onRemove(question.id)}
              />
            ))}
          </ol>
        </Flex>
      </SortableContext>
    </DndContext>
  );
}

type SortableQuestionProps = { question: ListedQuestion; position: number; onRemove: () => void };

function SortableQuestion({ question, position, onRemove }: SortableQuestionProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: question.id,
  });

  return (
    <li
      ref={setNodeRef}
      data-testid="job-question"
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
        position: 'relative',
        zIndex: isDragging ? 1 : undefined,
      }}
    >
      <Card size="1" style={isDragging ? { boxShadow: 'var(--shadow-4)' } : undefined}>
        <Flex align="center" gap="3">
          <IconButton
            type="button"
            variant="ghost"
            color="gray"
            ref={setActivatorNodeRef}
            aria-label={`Move ${question.title}`}
            style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <DragIcon />
          </IconButton>
          <Text size="2" color="gray">
            {position}.
          </Text>
          <Text size="2" style={{ flex: 1 }}>
            {question.title}
          </Text>
          <IconButton type="button" variant="ghost" color="red" aria-label={`Remove ${question.title}`} onClick={onRemove}>
            <CrossIcon />
          </IconButton>
        </Flex>
      </Card>
    </li>
  );
}

function DragIcon() {
  return (
    <svg width="15" height="15" viewBox="0 0 15 15" fill="currentColor" aria-hidden="true">
      {[3, 7.5, 12].flatMap((y) => [5.5, 9.5].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.2" />))}
    </svg>
  );
}

function CrossIcon() {
  return (
    <svg width="15" height="15" viewBox="0 0 15 15" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
      <path d="M4 4l7 7M11 4l-7 7" />
    </svg>
  );
}
