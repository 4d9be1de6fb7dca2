package takes

import (
	"screenroom/server/internal/takes/staging"

	"screenroom/server/internal/platform"

	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/gabriel-vasile/mimetype"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// Staged takes (decisions.md): a take's parts are written into one file, fsynced as they arrive (take_files.go), so
// submitting the take moves that file into the answer's storage folder and syncs the folders, whatever the take's
// length. PocketBase would store it as an upload: a copy of every byte, then (durable.go) an fsync of every byte,
// 0.4-0.9 s for a 5- to 10-minute answer on this machine's disk.
//
// lockTake: one writer of a take's file at a time (a part being copied into it, or the submit moving it away).

type takeLock struct {
	mu    sync.Mutex
	users int
}

var (
	takeLocksMu sync.Mutex
	takeLocks   = map[string]*takeLock{}
)

// lockTake holds takeID's lock until the returned function is called (once; more calls do nothing).
func lockTake(takeID string) func() {
	takeLocksMu.Lock()
	l := takeLocks[takeID]
	if l == nil {
		l = &takeLock{}
		takeLocks[takeID] = l
	}
	l.users++
	takeLocksMu.Unlock()
	l.mu.Lock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Unlock()
			takeLocksMu.Lock()
			l.users--
			if l.users == 0 {
				delete(takeLocks, takeID)
			}
			takeLocksMu.Unlock()
		})
	}
}

// sectionReader reads length bytes of a file from offset, and closes the file at its end (or when closed).
type sectionReader struct {
	*io.SectionReader
	file *os.File
}

func (r *sectionReader) Close() error { return r.file.Close() }

// Part is one part of a staged take (staging.Part).
type Part = staging.Part

// listTakeParts lists the parts of the take staged in dir, by offset (staging.ListParts).
func listTakeParts(dir string) []Part { return staging.ListParts(dir) }

// registerStagedTakeMove stores a submitted take's file by a rename instead of PocketBase's upload: on the create of
// a record with a new file read from a path inside the staging root (a take joined by StagedAnswerFile), on local
// storage, the file is renamed to its place in the storage folder, with the side file PocketBase's local storage
// keeps each file's content type in, the file and its folders are synced, and the record stores the file's name as
// if PocketBase had uploaded it. When the save fails after that, the file goes back where it came from (the take is
// kept for a retry). Anything else (S3, another file system, any other file) is PocketBase's upload as before.
// It runs before the file field's upload and before durable.go's sync (which then has nothing left to do for it).
func registerStagedTakeMove(app core.App) {
	// a save inside a transaction: the files go back if the transaction fails after the save (a full disk at the
	// commit), as PocketBase removes the files it uploaded then
	var pending sync.Map // *core.Record → undo func()
	move := &hook.Handler[*core.RecordEvent]{
		Func: func(e *core.RecordEvent) error {
			undo, err := moveStagedFiles(e.App, e.Record)
			if err != nil {
				return err
			}
			if err := e.Next(); err != nil {
				undo()
				return err
			}
			if e.App.IsTransactional() {
				pending.Store(e.Record, undo)
			}
			return nil
		},
		Priority: -100,
	}
	app.OnRecordCreateExecute().Bind(move)
	app.OnRecordAfterCreateError().BindFunc(func(e *core.RecordErrorEvent) error {
		if undo, ok := pending.LoadAndDelete(e.Record); ok {
			undo.(func())()
		}
		return e.Next()
	})
	app.OnRecordAfterCreateSuccess().BindFunc(func(e *core.RecordEvent) error {
		pending.Delete(e.Record)
		return e.Next()
	})
}

// moveStagedFiles moves the record's new files that are joined takes into the storage folder, and returns how to
// move them back.
func moveStagedFiles(app core.App, record *core.Record) (undo func(), err error) {
	undo = func() {}
	if app.Settings().S3.Enabled {
		return undo, nil
	}
	stagingRoot := filepath.Join(app.DataDir(), "screenroom_takes") + string(filepath.Separator)
	storage := filepath.Join(app.DataDir(), core.LocalStorageDirName)
	recordDir := filepath.Join(storage, filepath.FromSlash(record.BaseFilesPath()))
	var moved [][2]string // from, to
	undo = func() {
		for _, m := range moved {
			_ = os.Remove(m[1] + ".attrs")
			if err := os.Rename(m[1], m[0]); err != nil {
				app.Logger().Error("could not move a staged take back after a failed save", "from", m[1], "to", m[0], "error", err.Error())
			}
		}
		if len(moved) > 0 {
			_ = os.Remove(recordDir) // only when empty: the record's folder the move made
		}
	}
	for _, field := range record.Collection().Fields {
		if field.Type() != core.FieldTypeFile {
			continue
		}
		name := field.GetName()
		raw := record.GetRaw(name)
		values, multiple := raw.([]any)
		if !multiple {
			values = []any{raw}
		}
		changed := false
		for i, value := range values {
			file, ok := value.(*filesystem.File)
			if !ok {
				continue
			}
			source, ok := file.Reader.(*filesystem.PathReader)
			if !ok || !strings.HasPrefix(filepath.Clean(source.Path), stagingRoot) {
				continue
			}
			target := filepath.Join(recordDir, file.Name)
			done, err := moveIntoStorage(source.Path, target, file.OriginalName)
			if done {
				moved = append(moved, [2]string{source.Path, target})
			}
			if errors.Is(err, syscall.EXDEV) {
				continue // another file system: PocketBase's upload copies it
			}
			if err != nil {
				undo()
				return func() {}, err
			}
			values[i] = file.Name
			changed = true
		}
		if changed {
			if multiple {
				record.SetRaw(name, values)
			} else {
				record.SetRaw(name, values[0])
			}
		}
	}
	if len(moved) == 0 {
		return undo, nil
	}
	// the names: the record's folder and the folders above it, up to the storage folder's parent
	if platform.Durable() {
		for dir := recordDir; ; dir = filepath.Dir(dir) {
			if err := platform.SyncPath(dir); err != nil {
				undo()
				return func() {}, err
			}
			if dir == storage || dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return undo, nil
}

// moveIntoStorage renames the file at source to target, beside it the side file with its content type that
// PocketBase's local storage reads when it serves the file, and syncs the file. done is false when there was nothing
// to move.
func moveIntoStorage(source, target, originalName string) (done bool, err error) {
	kind, err := mimetype.DetectFile(source)
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return false, err
	}
	defer func() {
		if !done {
			_ = os.Remove(target + ".attrs")
			_ = os.Remove(filepath.Dir(target)) // only when empty: the record's folder this made
		}
	}()
	attrs, err := json.Marshal(map[string]any{
		"user.cache_control":       "",
		"user.content_disposition": "",
		"user.content_encoding":    "",
		"user.content_language":    "",
		"user.content_type":        kind.String(),
		"user.metadata":            map[string]string{"original-filename": originalName},
		"md5":                      nil,
	})
	if err != nil {
		return false, err
	}
	if err := os.WriteFile(target+".attrs", attrs, 0o644); err != nil {
		return false, err
	}
	if err := os.Rename(source, target); err != nil {
		return false, err
	}
	if platform.Durable() {
		// the bytes were synced as the parts arrived; this makes the file's own sync visible where it now is
		if err := platform.SyncPath(target); err != nil {
			return true, err
		}
		if err := platform.SyncPath(target + ".attrs"); err != nil {
			return true, err
		}
	}
	return true, nil
}
