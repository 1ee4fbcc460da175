from guidelint.cli import main

main()
