from dotdbg.cli.entry import main

raise SystemExit(main())
