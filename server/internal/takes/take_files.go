package takes

import (
	"screenroom/server/internal/takes/staging"

	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/pocketbase/pocketbase/tools/security"
)

// A staged take on disk (take_rows.go decides who it belongs to and whether it is live):
// {dataDir}/screenroom_takes/{takeId}/
//
//	.joined            the layout below (a take staged before it has its parts' bytes in the part files)
//	take               the take's bytes, each part's at its offset, synced as each part arrives
//	{offset}           one file per part, named by its byte offset in the take (decimal), as long as the part but
//	                   holding none of its bytes (a sparse file): the part's name and size, made once its bytes are
//	                   in `take`
//	.part-*            a part being received (copied into `take`, then truncated into the part's file)
//	.submit-*/{name}   `take` while POST /api/screenroom/answers stores it (moved, not copied: staged_takes.go renames
//	                   it into the answer's storage folder; a failed save puts it back)
//
// The dir is made only by the transaction that inserts the take's row; a part never makes it again, so a take that
// was replaced or discarded (its dir removed) stays gone. A part is confirmed (2xx) only once its bytes and its name
// are on stable storage: `take` and the dir are fsynced (the device may drop its copy of what the server confirmed).
// Submitting a take costs the same at any length (decisions.md: "a submit only moves it and syncs the folder").

// maxParts: a take of 600 s in 1 s chunks has about 600.
const maxParts = 10000

const (
	dirMode    = 0o755
	dataName   = "take"
	joinedName = ".joined"
)

const takesDir = staging.FolderName

func stagingRoot(app core.App) string { return staging.Root(app) }

func takeDir(app core.App, takeID string) string { return staging.Dir(app, takeID) }

// submitKey marks a submit of the take running (in the app store, shared with the JS submit while it is there).
func submitKey(takeID string) string {
	return "screenroomSubmit:" + takeID
}

// writePart streams body (the request body, length bytes, already reserved by reservePart) into the part at offset:
// received under a temporary name, then copied into the take's file at its offset (under the take's lock) and made
// the part's sparse file, renamed over any earlier part at that offset (a retry replaces it). Never makes the take's
// dir: when it is gone (the take was replaced or discarded since the reservation) the part is refused with 409;
// while a submit holds the take's file, with 503 (the client tries again; by then the question is answered).
// Returns the bytes stored.
func writePart(app core.App, takeID string, offset int64, body io.Reader, length int64) (int64, error) {
	dir := takeDir(app, takeID)
	// the dir removed while this part was on its way is the 409; any other failure is itself
	goneOr := func(err error) error {
		if _, statErr := os.Stat(dir); statErr != nil {
			return retiredError()
		}
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return 0, goneOr(err)
	}
	defer root.Close()
	joined := exists(root, joinedName)
	tmp := ".part-" + security.RandomString(12)
	file, err := root.Create(tmp)
	if err != nil {
		return 0, goneOr(err)
	}
	written, err := file.ReadFrom(body)
	if err == nil && platform.Durable() && !joined {
		err = file.Sync()
	}
	if err != nil {
		file.Close()
		removeQuietly(root, tmp)
		// a body over the part limit is PocketBase's 413; a dropped connection ends the request anyway; a full disk
		// (ENOSPC) is platform's 507
		return 0, err
	}
	if err := file.Close(); err != nil {
		removeQuietly(root, tmp)
		return 0, err
	}

	var refusal error
	if written != length {
		refusal = router.NewBadRequestError("The part's body is not as long as its Content-Length.", nil)
	} else {
		others := 0
		for _, part := range listTakeParts(dir) {
			if part.Offset != offset {
				others++
			}
		}
		if others >= maxParts {
			refusal = router.NewBadRequestError(fmt.Sprintf("A take has at most %d parts.", maxParts), nil)
		}
	}
	if refusal != nil {
		removeQuietly(root, tmp)
		return 0, refusal
	}
	if joined {
		if err := copyIntoTake(app, root, takeID, tmp, offset, written); err != nil {
			removeQuietly(root, tmp)
			return 0, goneOr(err)
		}
	}
	if err := root.Rename(tmp, strconv.FormatInt(offset, 10)); err != nil {
		removeQuietly(root, tmp)
		return 0, goneOr(err)
	}
	if err := syncDir(root, "."); err != nil {
		return 0, err
	}
	return written, nil
}

// copyIntoTake copies the received part tmp into the take's file at offset and syncs it, then truncates tmp to the
// part's size without its bytes (its name and size are the part's record; its bytes are in `take`).
func copyIntoTake(app core.App, root *os.Root, takeID, tmp string, offset, size int64) error {
	err := func() error {
		unlock := lockTake(takeID)
		defer unlock()
		here, err := takeHere(app, root, takeID, false)
		if err != nil {
			return err
		}
		if !here {
			// a submit holds it: tried again (by then the question is answered)
			return router.NewApiError(http.StatusServiceUnavailable, "The take is being stored. Please try again in a moment.", nil)
		}
		data, err := root.OpenFile(dataName, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		defer data.Close()
		input, err := root.Open(tmp)
		if err != nil {
			return err
		}
		defer input.Close()
		if _, err := data.Seek(offset, io.SeekStart); err != nil {
			return err
		}
		copied, err := data.ReadFrom(input)
		if err != nil {
			return err
		}
		if copied != size {
			return errors.New("a part was not copied whole into its take")
		}
		if platform.Durable() {
			return data.Sync()
		}
		return nil
	}()
	if err != nil {
		return err
	}
	marker, err := root.OpenFile(tmp, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer marker.Close()
	if err := marker.Truncate(0); err != nil {
		return err
	}
	return marker.Truncate(size)
}

func exists(root *os.Root, name string) bool {
	_, err := root.Stat(name)
	return err == nil
}

// takeHere reports whether the take's file is in its dir (call with the take's lock held). When it is not, and no
// submit of the take is running (submitting: the caller is that submit), one that was cut off (the server stopped
// during it) left it in its .submit dir: it is put back.
func takeHere(app core.App, root *os.Root, takeID string, submitting bool) (bool, error) {
	if exists(root, dataName) {
		return true, nil
	}
	if !submitting && app.Store().Has(submitKey(takeID)) {
		return false, nil
	}
	return restoreTake(root)
}

// restoreTake puts back the take's file from a .submit dir: true when `take` is there again.
func restoreTake(root *os.Root) (bool, error) {
	entries, err := os.ReadDir(root.Name())
	if err != nil {
		return false, err
	}
	for _, entry := range entries {
		name := entry.Name()
		if !entry.IsDir() || !strings.HasPrefix(name, ".submit-") {
			continue
		}
		inner, err := os.ReadDir(filepath.Join(root.Name(), name))
		if err != nil {
			return false, err
		}
		for _, file := range inner {
			if file.IsDir() {
				continue
			}
			if err := root.Rename(name+"/"+file.Name(), dataName); err != nil {
				return false, err
			}
			removeAllQuietly(root, name)
			if err := syncDir(root, "."); err != nil {
				return false, err
			}
			return true, nil
		}
	}
	return exists(root, dataName), nil
}

func removeAllQuietly(root *os.Root, name string) {
	_ = root.RemoveAll(name) // gone already
}

func removeQuietly(root *os.Root, name string) {
	_ = root.Remove(name) // gone already (with its dir)
}

// isStorageFull: storage exhaustion (ENOSPC, a quota), which platform answers 507.
func isStorageFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	text := strings.ToLower(err.Error())
	for _, t := range []string{"no space left on device", "disk quota exceeded", "database or disk is full"} {
		if strings.Contains(text, t) {
			return true
		}
	}
	return false
}

// syncDir fsyncs the dir name of root (the names in it: a part renamed into place, a take's dir made).
func syncDir(root *os.Root, name string) error {
	if !platform.Durable() {
		return nil
	}
	dir, err := root.Open(name)
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}

// makeTakeDir makes a take's dir (in the transaction that inserts its row), durably, with its empty file and its
// layout's mark: its names in the dir, its name in the staging root, and the staging root's in the data dir (made
// with the first take), are synced.
func makeTakeDir(app core.App, takeID string) error {
	if err := os.MkdirAll(takeDir(app, takeID), dirMode); err != nil {
		return err
	}
	take, err := os.OpenRoot(takeDir(app, takeID))
	if err != nil {
		return err
	}
	defer take.Close()
	// empty files: the dir's sync makes their names durable; never truncated (a take's dir is made once)
	for _, name := range []string{dataName, joinedName} {
		file, err := take.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		file.Close()
	}
	if err := syncDir(take, "."); err != nil {
		return err
	}
	root, err := os.OpenRoot(app.DataDir())
	if err != nil {
		return err
	}
	defer root.Close()
	if err := syncDir(root, takesDir); err != nil {
		return err
	}
	return syncDir(root, ".")
}

// removeTake removes a take's staging dir (nothing when there is none). A part being renamed into it at that very
// moment can make the removal find the dir not empty: it tries again.
func removeTake(app core.App, takeID string) error {
	// only a take's own folder: an empty or odd id would name the staging folder itself, or a path outside it
	if !ValidTakeID(takeID) {
		return nil
	}
	dir := takeDir(app, takeID)
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
	}
	return err
}

// RemoveTakesQuietly removes the staging dirs of takeIDs, logging (never returning) what could not be removed (the
// sweep tries later).
func RemoveTakesQuietly(app core.App, takeIDs []string) {
	for _, takeID := range takeIDs {
		if err := removeTake(app, takeID); err != nil {
			app.Logger().Warn("could not remove a staged take", "take", takeID, "error", err.Error())
		}
	}
}

// joinedTake is a staged take made one file for its answer: file to attach; cleanup, when the answer was not stored,
// puts the take back as it was.
type joinedTake struct {
	file    *filesystem.File
	cleanup func() error
}

// assembleParts makes a staged take's parts one file fileName for its answer, or nil when the parts contiguous from
// 0 do not make exactly size bytes. Parts after a gap are left out: a take cut off by a crash may have a later part
// without the one before it, and its recording is what came before the gap. The take's file is moved, not copied
// (and staged_takes.go moves it on into storage): the same work at any length. A take staged before that layout has
// its bytes in its part files: they are copied into one.
func assembleParts(app core.App, takeID string, size int64, fileName string) (*joinedTake, error) {
	dir := takeDir(app, takeID)
	var end int64
	for _, part := range listTakeParts(dir) {
		if part.Offset != end {
			break // a gap: what follows it is not part of the take (cut off by a crash)
		}
		end += part.Size
	}
	if end != size {
		return nil, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil // replaced or discarded meanwhile
	}
	sub := ".submit-" + security.RandomString(12)
	moved, err := func() (bool, error) {
		defer root.Close()
		if exists(root, joinedName) {
			return moveTake(app, root, takeID, sub, size, fileName)
		}
		return copyParts(root, sub, size, fileName)
	}()
	if err != nil || !moved {
		return nil, err
	}
	file, err := filesystem.NewFileFromPath(filepath.Join(dir, sub, fileName))
	if err != nil {
		return nil, err
	}
	return &joinedTake{
		file: file,
		cleanup: func() error {
			take, err := os.OpenRoot(dir)
			if err != nil {
				return err
			}
			defer take.Close()
			unlock := lockTake(takeID)
			defer unlock()
			if exists(take, joinedName) && exists(take, sub+"/"+fileName) {
				if err := take.Rename(sub+"/"+fileName, dataName); err != nil {
					return err
				}
			}
			removeAllQuietly(take, sub)
			return nil
		},
	}, nil
}

// moveTake moves the take's file into sub as fileName, cut to size bytes: false when it does not hold them.
func moveTake(app core.App, root *os.Root, takeID, sub string, size int64, fileName string) (bool, error) {
	unlock := lockTake(takeID)
	defer unlock()
	here, err := takeHere(app, root, takeID, true)
	if err != nil || !here {
		return false, err
	}
	info, err := root.Stat(dataName)
	if err != nil {
		return false, err
	}
	held := info.Size()
	if held < size {
		return false, nil
	}
	if err := root.Mkdir(sub, dirMode); err != nil {
		return false, err
	}
	if err := root.Rename(dataName, sub+"/"+fileName); err != nil {
		return false, err
	}
	if held > size {
		// bytes after a gap (a part past the take's end): not the take's
		file, err := root.OpenFile(sub+"/"+fileName, os.O_RDWR, 0)
		if err != nil {
			return false, err
		}
		defer file.Close()
		if err := file.Truncate(size); err != nil {
			return false, err
		}
	}
	return true, nil
}

// copyParts copies the take's parts from 0 (a take staged in part files) into sub/fileName: false when they are not
// size bytes.
func copyParts(root *os.Root, sub string, size int64, fileName string) (complete bool, err error) {
	defer func() {
		if !complete {
			removeAllQuietly(root, sub)
		}
	}()
	copyErr := func() error {
		if err := root.Mkdir(sub, dirMode); err != nil {
			return err
		}
		out, err := root.Create(sub + "/" + fileName)
		if err != nil {
			return err
		}
		defer out.Close()
		var copied int64
		for _, part := range listTakeParts(root.Name()) {
			if part.Offset != copied || copied >= size {
				break
			}
			input, err := root.Open(strconv.FormatInt(part.Offset, 10))
			if err != nil {
				return err
			}
			n, err := out.ReadFrom(input)
			input.Close()
			if err != nil {
				return err
			}
			copied += n
		}
		// a part replaced by a retry of another size since it was listed
		complete = copied == size
		return nil
	}()
	if copyErr != nil {
		complete = false // a part vanished (the take was discarded meanwhile)
		if isStorageFull(copyErr) {
			return false, copyErr // not the take's fault: platform answers 507, the client retries
		}
	}
	return complete, nil
}

// partReader is a reader of the part at offset (size bytes) of the take takeID, nil when its bytes are not there.
func partReader(app core.App, takeID string, offset, size int64) (io.ReadCloser, error) {
	dir := takeDir(app, takeID)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if !exists(root, joinedName) {
		return fileSection(filepath.Join(dir, strconv.FormatInt(offset, 10)), 0, size)
	}
	unlock := lockTake(takeID)
	defer unlock()
	here, err := takeHere(app, root, takeID, false)
	if err != nil {
		return nil, err
	}
	if !here {
		return nil, nil // a submit holds it
	}
	return fileSection(filepath.Join(dir, dataName), offset, size)
}

// fileSection reads length bytes of the file at path from offset.
func fileSection(path string, offset, length int64) (io.ReadCloser, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &sectionReader{io.NewSectionReader(file, offset, length), file}, nil
}
